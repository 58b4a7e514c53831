"""Tools for reviewing the data and the engines, used by ``flagcore data ...`` and ``flagcore stats``.

library_check (a library's rules and tier counts), colour_check (a flag's described colours
against its artwork), contact_sheets (category pages to look over), pictures (PNGs of boards and
flags), signature_audit (look-alike tiles of the Puzzle's signatures).
"""
