"""The argument rules of the public API, stated once: what is accepted, and every error message.

One module per area: ``common`` (seeds, seed text, randomness, flag codes, the commands' counts),
``puzzle`` (boards, tile classes, grids, swaps and swap logs, par options, verify's status codes),
``signatures`` (images, grids, strides, render sizes, methods),
``connections`` (modes, board ids, dates, selections) and ``web`` (the server's requests).

Each ``as_<thing>(value, name)`` returns the checked value in the form the cores take, or raises
TypeError/ValueError naming the argument. Both twins rely on these functions, which is why they
accept and reject exactly the same values with exactly the same messages:

* the reference twins call them first, then do the work in Python;
* the compiled cores accept the common shapes (an int32 array, a list of plain ints, an int seed)
  in C, in the same pass as the work, and hand anything else, or anything wrong, to these
  functions: for the precise error, or to convert an unusual but valid input (a tuple of numpy
  integers, an int16 array) once;
* where a core finds a problem deep inside its work (verify's replay), it returns a status code and
  one function here turns the code into the message, so the message is written once.

The compiled loops run with bounds checks off, so every index they follow is proven in range
either here or by the compiled check that mirrors these rules (see docs/architecture.md,
"The boundary"). This package imports nothing of flagcore but ``flagcore.errors``.
"""
