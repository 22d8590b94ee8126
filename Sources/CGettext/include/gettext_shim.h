#ifndef CGETTEXT_H
#define CGETTEXT_H

/// glibc's gettext and locale, for remindd's messages (domain "remindd").

/// Takes the language of messages (LC_MESSAGES), of dates (LC_TIME) and the character set (LC_CTYPE) from the
/// environment (LC_ALL, LC_*, LANG), leaving numbers (LC_NUMERIC) as C. Returns the locale messages are in
/// ("C" when the environment's is not installed).
const char *_Nonnull remindd_set_locale(void);

/// Reads the domain's catalogs from `folder` (FOLDER/LANG/LC_MESSAGES/remindd.mo), always as UTF-8.
void remindd_bind_catalogs(const char *_Nonnull folder);

/// The domain's translation of `text` (or `plural`, by the language's rule for `count`); the text itself when
/// there is none.
const char *_Nonnull remindd_translate(const char *_Nonnull text, const char *_Nullable plural, unsigned long count);

/// The locale's name of a weekday (0 Sunday ... 6 Saturday), from LC_TIME: "Sun"/"Sunday", "So"/"Sonntag".
const char *_Nonnull remindd_weekday_name(int weekday, int abbreviated);

/// The locale's name of a month (1 ... 12), from LC_TIME: "Nov"/"November", "nov."/"novembre".
const char *_Nonnull remindd_month_name(int month, int abbreviated);

/// The environment's decimal separator (LC_NUMERIC, `,` in German) into `buffer`, without changing the
/// process's own LC_NUMERIC (which stays C, so that parsing and printing numbers do not change).
void remindd_decimal_separator(char *_Nonnull buffer, unsigned long size);

#endif
