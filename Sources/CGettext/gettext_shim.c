#include "gettext_shim.h"

#include <langinfo.h>
#include <libintl.h>
#include <locale.h>
#include <stddef.h>
#include <string.h>

static const char domain[] = "remindd";

const char *remindd_set_locale(void) {
    setlocale(LC_CTYPE, "");
    setlocale(LC_TIME, "");
    const char *messages = setlocale(LC_MESSAGES, "");
    return messages != NULL ? messages : "C";
}

void remindd_bind_catalogs(const char *folder) {
    bindtextdomain(domain, folder);
    bind_textdomain_codeset(domain, "UTF-8");
}

const char *remindd_translate(const char *text, const char *plural, unsigned long count) {
    if (plural == NULL) return dgettext(domain, text);
    return dngettext(domain, text, plural, count);
}

const char *remindd_weekday_name(int weekday, int abbreviated) {
    if (weekday < 0 || weekday > 6) return "";
    return nl_langinfo((abbreviated ? ABDAY_1 : DAY_1) + weekday);
}

const char *remindd_month_name(int month, int abbreviated) {
    if (month < 1 || month > 12) return "";
    return nl_langinfo((abbreviated ? ABMON_1 : MON_1) + month - 1);
}

void remindd_decimal_separator(char *buffer, unsigned long size) {
    if (size == 0) return;
    strncpy(buffer, ".", size);
    locale_t numeric = newlocale(LC_NUMERIC_MASK, "", (locale_t)0);
    if (numeric == (locale_t)0) return;
    const char *radix = nl_langinfo_l(RADIXCHAR, numeric);
    if (radix != NULL && radix[0] != '\0') strncpy(buffer, radix, size - 1);
    buffer[size - 1] = '\0';
    freelocale(numeric);
}
