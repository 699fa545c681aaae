"""The model every layer agrees on, pure and without I/O: the input contract, the level vocabulary, the
shape of a grade, principles, access codes and how ids are escaped into refs and keys."""
