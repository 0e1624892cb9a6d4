// Package repo holds the rules the repository checks of itself: the code cites its own docs/
// pages, never a document outside the repository. Its tests read the source; it has no code of
// its own.
package repo
