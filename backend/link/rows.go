package link

import "context"

// Bulk writes whose rows must survive a crash (CSV imports) choose each link's ID before
// anything is written and record it; after a crash the caller finds which of those links exist
// and writes only the others, under the same IDs, so a row never makes two links. The rows go
// through the same checks, quota and coalescing writer as CreateBatch.

// PrepareRows validates ins like CreateBatch and gives each new link its ID, writing nothing and
// taking no quota: ids[i], when not 0, is the ID row i was given before (a resumed write). Of
// two rows with one alias the first keeps it. Dedupe is not offered: every row is a new link.
func (s *Service) PrepareRows(ctx context.Context, workspaceID, userID int64, ins []Input, ids []int64) []Result {
	for i := range ins {
		ins[i].Dedupe = false
	}
	results, _ := s.prepareAll(ctx, workspaceID, userID, ins, ids)
	return results
}

// WriteRows takes the month's quota for the prepared rows (Link set, Err nil), in order, writes
// them through the coalescing writer and answers each in rows. A row keeps its ID: a generated
// code that collides with an alias answers conflict, and the caller may Reissue it, record the
// new ID and write it again.
func (s *Service) WriteRows(ctx context.Context, workspaceID int64, rows []Result) {
	var toWrite []int
	for i, r := range rows {
		if r.Link != nil && r.Err == nil && !r.Created {
			toWrite = append(toWrite, i)
		}
	}
	s.write(ctx, workspaceID, rows, toWrite, false)
}

// Reissue gives a prepared link with a generated code the next ID and its code.
func (s *Service) Reissue(ctx context.Context, l *Link) error { return s.assignCode(ctx, l) }
