"""The published terms of the sequences of :mod:`excover.sequences`, with their source.

Copied from the OEIS entries as the ``oeis/oeisdata`` repository on GitHub holds them (the
OEIS's own data, one ``seq/Annn/Annnnnn.seq`` file per entry; the terms are the ``%S``
line), read on 26 November 2026 through the stored copy of that repository at the commits
named in :data:`SOURCES`. The newest dated copy read, A360256 at revision #55 of 26 June
2025, has the same terms as the older ones: no term past those below was published in
any copy read. A172477 was read again on 28 November 2026 at a newer copy, revision #33
of 23 November 2025, which adds a(10) (published in November 2025); the older copy
stopped at a(9). A145835, A291806, A291807, A348453 and A360773 were read on 29 November
2026, at the newest copies of their entries that the stored repository holds
(:data:`SOURCES`; A360773's newest copy has the same five terms). A348453's data line
skips T(8, 1): after row 7 (its 27th term) it goes on with T(8, 2) = 7,157,114,189, where
the entry's own example and definition put T(8, 1) = 1 (row 8 is "1, 7157114189, ?,
187497290034, ?, ?, 1"; d = 1 is the square itself); its terms below are the triangle
as defined, that 1 put back as the 28th. The tests check the sequences against these
terms; the OEIS data are under the CC BY-SA 4.0 licence (https://oeis.org/LICENSE).
"""

from __future__ import annotations

__all__ = ["KNOWN", "OFFSET", "SOURCES"]

#: The published terms, a(OFFSET), a(OFFSET + 1), ... for each sequence.
KNOWN: dict[str, tuple[int, ...]] = {
    "A360498": (0, 0, 4, 12, 256, 3620, 87216, 2444084, 87181220),
    "A360725": (0, 0, 4, 36, 1056, 31052, 1473944, 87469884),
    "A360499": (1, 1, 21, 269, 4489, 82981, 2995185, 118897973),
    "A360256": (1, 1, 33, 513, 14409, 693025, 50447161),
    "A360804": (1, 1, 21, 253, 2401, 36237, 815929, 18713197),
    "A360773": (0, 1, 8, 1024, 620448),
    "A328020": (1, 1, 2, 22, 515, 56734, 19846102, 23437350133),
    "A172477": (
        1,
        2,
        10,
        117,
        4006,
        451206,
        158753814,
        187497290034,
        706152947468301,
        8576037567452146180,
    ),
    "A145835": (
        1,
        12,
        1434,
        1691690,
        19719299768,
        2271230282824746,
        2584855762327078145444,
        29068227444022728740767607050,
        3230042572278849047360048508956727420,
        3546545075986984198328715750838554116235343894,
    ),
    "A291806": (1, 5, 216, 212987, 2465119032),
    "A291807": (1, 5, 67, 3000, 412528),
    # rows 1 to 7, then row 8's T(8, 1) (see the module's text) and T(8, 2)
    "A348453": (
        *(1,),
        *(1, 2, 1),
        *(1, 10, 1),
        *(1, 70, 117, 36, 1),
        *(1, 4006, 1),
        *(1, 80518, 264500, 442791, 451206, 178939, 80092, 6728, 1),
        *(1, 158753814, 1),
        *(1, 7157114189),
    ),
}

#: The index of each sequence's first term (the OEIS's ``%O`` offset).
OFFSET: dict[str, int] = dict.fromkeys(KNOWN, 1)

#: Where each sequence's terms were read: the entry's revision and date when its copy
#: gives them, and the commit of ``oeis/oeisdata`` holding that copy.
SOURCES: dict[str, str] = {
    "A360498": "#7 of 16 February 2023, oeis/oeisdata 72c53dd50967ac7166f7d31bf79be95174ec5bc6",
    "A360725": "oeis/oeisdata 11b0c6433dd90039aee00285a87f63833a38c4fa (keyword 'more')",
    "A360499": "#12 of 16 February 2023, oeis/oeisdata 72c53dd50967ac7166f7d31bf79be95174ec5bc6",
    "A360256": "#55 of 26 June 2025, oeis/oeisdata fea14328ff634595d53e58eeeb92604f1173f203",
    "A360804": "#10 of 25 February 2023, oeis/oeisdata 571197984aeda7b8b680fe3a1f6a43f9898cd441",
    "A360773": (
        "#5 of 20 February 2023 (the entry's web page), oeis/oeisdata"
        " ea366ce4ff8725171865b904d1b6460e54fd8680 (keyword 'more')"
    ),
    "A328020": "#30 of 14 October 2019, oeis/oeisdata 571197984aeda7b8b680fe3a1f6a43f9898cd441",
    "A172477": (
        "#33 of 23 November 2025, oeis/oeisdata 474babab66103951afc6674213a3aad51594c3ac"
        " (a(9): R. S. Harris, 2010; a(10): J. Tucker-Foltz with J. Clelland, E. Heitzmann"
        " and G. Schoenbach, 16 November 2025)"
    ),
    "A145835": (
        "#38 of 20 January 2026, oeis/oeisdata 1930197d3e3258c60238ea9f03ab5809f5375d49"
        " (keywords 'hard, more'; a(7)-a(9) Frank Simon 2011, a(10) from his 2012 thesis)"
    ),
    "A291806": (
        "#26 of 1 February 2026, oeis/oeisdata db6c48b114d7864e7e0a2ca9cc8a09bfb9565b1f"
        " (a(5): Christian Sievers, 1 February 2026)"
    ),
    "A291807": (
        "#22 of 1 February 2026, oeis/oeisdata 377fc4721a1503cd04a4d09374864ae55ff5c2b8"
        " (a(5): Christian Sievers, 1 February 2026)"
    ),
    "A348453": (
        "#53 of 9 July 2025, oeis/oeisdata 1bb996740d7b6c62b85250734e4ad65cb4f1dc8e"
        " (T(8,2) from A348456, May 2022; 'T(8,3) is presently unknown'; T(8,1) put back,"
        " see the module's text)"
    ),
}
