"""Pure: the class mode's store (classes, followers, questions, answers) in SQLite or Redis."""
