-- +goose Up

-- The rollups a batch of visits adds to are updated over and over (the same link's hour, key
-- and total in batch after batch). Room left on each page lets PostgreSQL write the new version
-- of a row beside the old one without touching the indexes (a heap-only update) and prune the
-- old one when it next reads the page: less work per stored visit, and tables smaller than
-- with full pages, whose every update leaves a dead row and index entries behind. Pages
-- written from now on keep the room; the ones there fill as they are rewritten.
ALTER TABLE visit_hours SET (fillfactor = 70);
ALTER TABLE visit_key_hours SET (fillfactor = 70);
ALTER TABLE workspace_visit_hours SET (fillfactor = 70);

-- From now on a visit's device, system and browser are one key of visit_key_hours and
-- visit_key_days, dim 'a': the three joined by chr(31) (visit.AgentKey), one row where there
-- were three. The statistics split them when they read, and add them to the rows with dims
-- 'd', 'o' and 'b' stored before, which stay as they are.

-- +goose Down
-- The agent keys split back into the rows of the three breakdowns they hold.
INSERT INTO visit_key_hours AS t (link_id, hour, dim, key, visits)
SELECT k.link_id, k.hour, p.dim, split_part(k.key, chr(31), p.n), sum(k.visits)
FROM visit_key_hours k, (VALUES ('d'::"char", 1), ('o'::"char", 2), ('b'::"char", 3)) AS p (dim, n)
WHERE k.dim = 'a' AND split_part(k.key, chr(31), p.n) <> ''
GROUP BY 1, 2, 3, 4
ON CONFLICT (link_id, hour, dim, key) DO UPDATE SET visits = t.visits + EXCLUDED.visits;
DELETE FROM visit_key_hours WHERE dim = 'a';
INSERT INTO visit_key_days AS t (link_id, day, dim, key, visits)
SELECT k.link_id, k.day, p.dim, split_part(k.key, chr(31), p.n), sum(k.visits)
FROM visit_key_days k, (VALUES ('d'::"char", 1), ('o'::"char", 2), ('b'::"char", 3)) AS p (dim, n)
WHERE k.dim = 'a' AND split_part(k.key, chr(31), p.n) <> ''
GROUP BY 1, 2, 3, 4
ON CONFLICT (link_id, day, dim, key) DO UPDATE SET visits = t.visits + EXCLUDED.visits;
DELETE FROM visit_key_days WHERE dim = 'a';
ALTER TABLE visit_hours RESET (fillfactor);
ALTER TABLE visit_key_hours RESET (fillfactor);
ALTER TABLE workspace_visit_hours RESET (fillfactor);
