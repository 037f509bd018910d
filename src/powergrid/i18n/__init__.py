"""The game in its players' languages: English (the source), German, Polish, Portuguese, Romanian
and Hebrew.

At play time only the standard library is needed (:mod:`gettext` reads the compiled ``.mo``
catalogues under ``locales/``). Building them (extract, update, compile, check) needs Babel:
``python -m powergrid.i18n.build`` (docs/translating.md).
"""

from .runtime import (
    LANGUAGES,
    N_,
    RTL,
    Translator,
    UnknownLanguage,
    _,
    check_language,
    current,
    format_number,
    gettext,
    language_from_env,
    negotiate,
    ngettext,
    npgettext,
    pgettext,
    translator,
    use,
)

__all__ = [
    "LANGUAGES", "RTL", "N_", "Translator", "UnknownLanguage", "_", "check_language", "current",
    "format_number", "gettext", "language_from_env", "negotiate", "ngettext", "npgettext", "pgettext",
    "translator", "use",
]
