// Package repo holds the rules the repository checks of itself: the code cites its own docs/
// pages, never a document outside the repository; and each driver (pgx, go-redis, gin,
// stripe-go) is imported only in its home package, tests included (docs/architecture.md, "Where
// the drivers live"). Its tests read the source; it has no code of its own.
package repo
