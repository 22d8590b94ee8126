/// remindd-web's one script (served as /app.js, no inline script: the CSP forbids it). The pages work without
/// it; with it, the page is fetched again whenever remindd's Watch stream says something changed (a dose taken
/// on the phone or in the terminal, a firing), so it leaves or appears within a second without a reload.
enum WebScript {
    static let javascript = """
        "use strict";
        (function () {
          var main = document.querySelector("main[data-live]");
          if (!main || !window.EventSource || !window.fetch) return;
          var waiting = false;
          // A form being filled in is never replaced under the person typing: the page is fetched once they
          // leave it (or send it).
          function editing() {
            var fields = document.querySelectorAll("main[data-live] input:not([type=hidden]), main[data-live] select, main[data-live] textarea");
            return Array.prototype.some.call(fields, function (field) {
              return field === document.activeElement || field.value !== field.defaultValue;
            });
          }
          function refresh() {
            if (editing()) { setTimeout(refresh, 1000); return; }
            waiting = false;
            fetch(location.pathname + location.search, { credentials: "same-origin" })
              .then(function (response) { return response.ok ? response.text() : null; })
              .then(function (html) {
                if (!html) return;
                var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("main[data-live]");
                var current = document.querySelector("main[data-live]");
                // Unchanged (the fetch at the stream's start, mostly): nothing is replaced under the pointer.
                if (!fresh || !current || fresh.outerHTML === current.outerHTML) return;
                // Typing may have begun while the page was being fetched: nothing typed is replaced.
                if (editing()) { waiting = true; setTimeout(refresh, 1000); return; }
                // Keyboard focus stays on the same control when it is still there.
                var focused = document.activeElement && document.activeElement.getAttribute("aria-label");
                current.replaceWith(fresh);
                if (focused) {
                  var again = Array.prototype.find.call(fresh.querySelectorAll("[aria-label]"), function (e) {
                    return e.getAttribute("aria-label") === focused;
                  });
                  if (again) again.focus();
                }
                document.body.setAttribute("data-refreshed", String(Date.now()));
              });
          }
          // The reminder form: the next five follow what is typed (the same GET as "Show the next five").
          var reminderForm = document.querySelector("form.reminder[action^='/reminders/']");
          var previewButton = reminderForm && reminderForm.querySelector("button[name=preview]");
          var typing = null, asked = 0;
          function showNextFive() {
            var mine = ++asked;  // an answer to an older question never replaces a newer one
            var query = new URLSearchParams(new FormData(reminderForm));
            query.delete("csrf");
            query.set("preview", "1");
            fetch(previewButton.getAttribute("formaction") + "?" + query.toString(), { credentials: "same-origin" })
              .then(function (response) { return response.ok ? response.text() : null; })
              .then(function (html) {
                if (!html || mine !== asked) return;
                var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("section[aria-labelledby=next-five]");
                var current = document.querySelector("section[aria-labelledby=next-five]");
                if (!fresh) return;
                if (current) current.replaceWith(fresh); else reminderForm.after(fresh);
              });
          }
          if (previewButton) {
            reminderForm.addEventListener("input", function () {
              clearTimeout(typing);
              typing = setTimeout(showNextFive, 400);
            });
          }
          var source = new EventSource("/events");
          source.addEventListener("change", function () {
            if (waiting) return;
            waiting = true;
            setTimeout(refresh, 50);
          });
        })();
        """
}
