"""The pages' words in the browser (``static/i18n.js``): counted words by the language's
plural rule, and numbers and dates as each language writes them (English pages printed the
ledger's dates as 06/12/2026, and the draw hint's chances with a decimal point in Italian)."""

from __future__ import annotations

from typing import Any

from browser_steps import LiveServer, browser, sqlite_server

__all__ = ["browser", "sqlite_server"]  # the fixtures (browser_steps)


def test_the_page_writes_plurals_numbers_and_dates_as_each_language_does(
    sqlite_server: LiveServer, browser: Any
) -> None:
    page = browser.new_page()
    try:
        page.goto(sqlite_server.base_url + "/")
        said = page.evaluate(
            """async () => {
                const i18n = await import("/static/i18n.js");
                const moment = "2026-12-06T15:04:05+00:00";
                const day = { dateStyle: "medium", timeZone: "UTC" };
                return {
                    date_en: i18n.formatDate("en", moment, day),
                    date_it: i18n.formatDate("it", moment, day),
                    not_a_date: i18n.formatDate("en", "soon"),
                    number_en: i18n.formatNumber("en", 12.5, { minimumFractionDigits: 1 }),
                    number_it: i18n.formatNumber("it", 12.5, { minimumFractionDigits: 1 }),
                    one_en: i18n.t("en", "hidden_cards", { n: 1 }),
                    five_it: i18n.t("it", "hidden_cards", { n: 5 }),
                    zero_it: i18n.t("it", "hidden_cards", { n: 0 }),
                };
            }"""
        )
    finally:
        page.close()
    assert said == {
        "date_en": "Dec 6, 2026",
        "date_it": "6 dic 2026",
        "not_a_date": "soon",
        "number_en": "12.5",
        "number_it": "12,5",
        "one_en": "1 hidden card",
        "five_it": "5 carte coperte",
        "zero_it": "0 carte coperte",
    }
