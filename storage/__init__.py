"""The only package with SQL: the database, its migrations and one repository class per table family."""
