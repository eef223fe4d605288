"""Counts and cases with real numbers and nouns: Czech has three plural forms (1; 2-4;
5 and more, 21 and 22 too), German two; a building in a sentence takes the case the
sentence gives it (Czech accusative ``školu``, German ``die Schule``)."""
from __future__ import annotations

import pytest

from drunter_notation import i18n
from drunter_notation.explain import evidence
from drunter_notation.i18n import ngettext

COUNTS = [
    (("{n} turn", "{n} turns"), {"de": ["1 Zug", "2 Züge", "5 Züge"], "cs": ["1 tah", "2 tahy", "5 tahů", "22 tahů"]}),
    (("{n} record", "{n} records"),
     {"de": ["1 Protokoll", "2 Protokolle", "5 Protokolle"], "cs": ["1 záznam", "3 záznamy", "5 záznamů", "21 záznamů"]}),
    (("{n} toilet", "{n} toilets"),
     {"de": ["1 Toilettenhäuschen", "2 Toilettenhäuschen", "5 Toilettenhäuschen"],
      "cs": ["1 kadibudka", "4 kadibudky", "5 kadibudek", "23 kadibudek"]}),
    (("{n} double", "{n} doubles"),  # the object of "holds": Czech accusative
     {"de": ["1 Zweierplättchen", "2 Zweierplättchen", "5 Zweierplättchen"],
      "cs": ["1 dvojkovou placku", "2 dvojkové placky", "5 dvojkových placek"]}),
    (("{player} wins with {n} point.", "{player} wins with {n} points."),
     {"de": ["Jana gewinnt mit 1 Punkt.", "Jana gewinnt mit 2 Punkten.", "Jana gewinnt mit 5 Punkten."],
      "cs": ["Jana vítězí s 1 bodem.", "Jana vítězí s 2 body.", "Jana vítězí s 5 body."]}),
    (("accepts", "accept"), {"de": ["lässt den Zug zu", "lassen den Zug zu", "lassen den Zug zu"],
                             "cs": ["tah uznává", "tah uznávají", "tah uznávají"]}),
]


@pytest.mark.parametrize("lang", ["de", "cs"])
@pytest.mark.parametrize("msgids, expected", COUNTS, ids=[c[0][0] for c in COUNTS])
def test_counts_take_the_form_of_their_number(msgids, expected, lang):
    numbers = {"de": [1, 2, 5], "cs": [1, 2, 5, 22]}[lang]
    numbers = [int(text.split()[0]) if text[0].isdigit() else n for text, n in zip(expected[lang], numbers)]
    with i18n.using(lang):
        said = [ngettext(*msgids, n).format(n=n, player="Jana") for n in numbers]
    assert said == [text for text in expected[lang]]


@pytest.mark.parametrize("lang, covered, voted", [
    ("de", "Jana überbaute die Kirche auf f7 (Wert 3) in Zug 12",
     "über das Plättchen von Anna ab, das das Wirtshaus auf j9 (Wert 5) und die Schule auf b4 (Wert 2) überbauen würde"),
    ("cs", "Jana zakryl(a) kostel na f7 (hodnota 3) v tahu 12",
     "o placce hráče Anna, která by zakryla hostinec na j9 (hodnota 5) a školu na b4 (hodnota 2)")])
def test_a_building_takes_the_case_of_its_sentence(lang, covered, voted):
    with i18n.using(lang):
        assert evidence.covered("Jana", "church", "f7", 3, 12) == covered
        assert evidence.voted("Ben", "no", "NEE", 14, "Anna", [("tavern", "j9", 5), ("school", "b4", 2)]).endswith(voted)


@pytest.mark.parametrize("lang, stands_out, none", [
    ("de", "Jana: sehr wahrscheinlich das Museum (80\u00a0%)", "am wahrscheinlichsten die Kirche, 60\u00a0%"),
    ("cs", "Jana: velmi pravděpodobně muzeum (80\u00a0%)", "nejpravděpodobnější je kostel, 60\u00a0%")])
def test_the_verdict_from_the_analysis_data(lang, stands_out, none):
    styles = {"decoy": 0.7, "soft": 0.3, "random": 0.0}
    with i18n.using(lang):
        assert evidence.summary("Jana", {"museum": 0.8, "church": 0.2}, styles, "museum").startswith(stands_out)
        assert none in evidence.summary("Jana", {"museum": 0.4, "church": 0.6}, styles, None)
