/// remindd-web's one style sheet: system fonts, sizes in rem (the browser's text size rules), contrast above
/// WCAG AA, a visible focus ring, and one column on a narrow screen.
enum WebStyle {
    static let css = """
        :root { color-scheme: light; --text: #1b1b1b; --muted: #4a4a4a; --accent: #0b5cad; --line: #c9c9c9; }
        * { box-sizing: border-box; }
        body { margin: 0; font-family: system-ui, sans-serif; font-size: 1rem; line-height: 1.5; color: var(--text); background: #fff; }
        header { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: center; gap: .5rem;
                 padding: .5rem 1rem; border-bottom: 1px solid var(--line); }
        nav { flex: 1 1 12rem; min-width: 0; }
        nav a { display: inline-block; color: var(--accent); font-weight: 600; margin: .2rem 1rem .2rem 0; }
        main { max-width: 48rem; margin: 0 auto; padding: 1rem; }
        h1 { font-size: 1.6rem; margin: .5rem 0 1rem; }
        h2 { font-size: 1.25rem; margin: 1.5rem 0 .5rem; }
        form { display: inline; }
        button { font: inherit; padding: .4rem .9rem; margin: .15rem .3rem .15rem 0; border: 1px solid var(--accent);
                 border-radius: .3rem; background: var(--accent); color: #fff; cursor: pointer; }
        header button { background: #fff; color: var(--accent); }
        :focus-visible { outline: .2rem solid #e37400; outline-offset: .15rem; }
        ul.due { list-style: none; padding: 0; }
        ul.due li { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: center; gap: .5rem;
                    padding: .6rem 0; border-bottom: 1px solid var(--line); }
        .what { font-weight: 600; }
        table { border-collapse: collapse; width: 100%; }
        .scroll { overflow-x: auto; max-width: 100%; }
        th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid var(--line); }
        th { color: var(--muted); font-weight: 600; }
        tr.due td { font-weight: 600; }
        .notice { padding: .6rem; border: 1px solid #b3261e; color: #8c1d18; border-radius: .3rem; }
        .notice ul { margin: 0; padding-left: 1.2rem; }
        .said { padding: .6rem; border: 1px solid #2b7a3d; color: #1e5a2c; border-radius: .3rem; }
        .note { color: var(--muted); }
        a.button { display: inline-block; padding: .4rem .9rem; border-radius: .3rem; background: var(--accent); color: #fff; text-decoration: none; }
        form.reminder label.field { display: block; margin: .5rem 0; }
        form.reminder fieldset { border: 1px solid var(--line); border-radius: .3rem; margin: .5rem 0; }
        label.day { display: inline-block; margin-right: .8rem; }
        td.actions a { margin-right: .6rem; color: var(--accent); }
        table.month td { vertical-align: top; height: 3.2rem; border: 1px solid var(--line); }
        table.month td.active { background: #e3f4e6; } table.month td.rest, table.month td.planned { background: #efe8f7; }
        table.month td.frozen { background: #e4eef9; } table.month td.missed { background: #fbe4e2; }
        table.month td[aria-current] { outline: .15rem solid var(--accent); }
        table.month .day { display: block; font-weight: 600; } table.month .state { font-size: .85rem; }
        ul.facts { list-style: none; padding: 0; } ul.facts li { margin: .2rem 0; }
        img.chart { display: block; max-width: 100%; height: auto; margin: 1rem 0; }
        form.period { display: block; margin: 0 0 1rem; }
        table.adherence th[scope=row] { font-weight: 600; color: var(--text); }
        form.stock { display: block; margin: 1rem 0 1.5rem; }
        form.stock label { display: block; margin: .4rem 0; }
        input, select { font: inherit; padding: .3rem .5rem; border: 1px solid #767676; border-radius: .3rem; max-width: 100%; }
        @media (max-width: 30rem) { main { padding: .5rem; } ul.due li { display: block; } }
        """
}
