"""Persistence of the model: the entities (the ORM's tables), engines and migrations, the store (the one
way to read and write the database) and the command line's read-only listings."""
