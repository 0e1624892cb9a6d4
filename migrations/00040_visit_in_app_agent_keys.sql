-- +goose Up

-- From now on a visit's in-app browser is a fourth part of its agent key (dim 'a' of
-- visit_key_hours and visit_key_days, visit.AgentKey), after its device, system and browser,
-- instead of a row of its own (dim 'i'): one breakdown row a visit where there were two for the
-- visits in an app. A key of three parts, as stored before and still for a visit outside an
-- app, has none. The statistics split the keys when they read, and add them to the rows of
-- dim 'i' stored before, which stay as they are.

-- +goose Down
-- The in-app browsers go back to rows of their own, and the agent keys back to three parts:
-- each key of four parts adds to the two rows it splits into, then goes.
INSERT INTO visit_key_hours AS t (link_id, hour, dim, key, visits)
SELECT k.link_id, k.hour, p.dim, p.key, sum(k.visits)
FROM visit_key_hours k, LATERAL (VALUES ('i'::"char", split_part(k.key, chr(31), 4)),
    ('a'::"char", array_to_string((string_to_array(k.key, chr(31)))[1:3], chr(31)))) AS p (dim, key)
WHERE k.dim = 'a' AND split_part(k.key, chr(31), 4) <> ''
GROUP BY 1, 2, 3, 4
ON CONFLICT (link_id, hour, dim, key) DO UPDATE SET visits = t.visits + EXCLUDED.visits;
DELETE FROM visit_key_hours WHERE dim = 'a' AND split_part(key, chr(31), 4) <> '';
INSERT INTO visit_key_days AS t (link_id, day, dim, key, visits)
SELECT k.link_id, k.day, p.dim, p.key, sum(k.visits)
FROM visit_key_days k, LATERAL (VALUES ('i'::"char", split_part(k.key, chr(31), 4)),
    ('a'::"char", array_to_string((string_to_array(k.key, chr(31)))[1:3], chr(31)))) AS p (dim, key)
WHERE k.dim = 'a' AND split_part(k.key, chr(31), 4) <> ''
GROUP BY 1, 2, 3, 4
ON CONFLICT (link_id, day, dim, key) DO UPDATE SET visits = t.visits + EXCLUDED.visits;
DELETE FROM visit_key_days WHERE dim = 'a' AND split_part(key, chr(31), 4) <> '';
