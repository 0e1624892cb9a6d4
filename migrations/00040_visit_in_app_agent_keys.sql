-- +goose Up

-- From now on a visit's in-app browser is a fourth part of its agent key (dim 'a' of
-- visit_key_hours and visit_key_days, visit.AgentKey), after its device, system and browser,
-- instead of a row of its own (dim 'i'): one breakdown row a visit where there were two for the
-- visits in an app. A key of three parts, as stored before and still for a visit outside an
-- app, has none. The statistics split the keys when they read, and add them to the rows of
-- dim 'i' stored before, which stay as they are.

-- +goose Down
-- The in-app browsers go back to rows of their own, and the agent keys back to three parts.
INSERT INTO visit_key_hours AS t (link_id, hour, dim, key, visits)
SELECT link_id, hour, 'i', split_part(key, chr(31), 4), sum(visits)
FROM visit_key_hours WHERE dim = 'a' AND split_part(key, chr(31), 4) <> ''
GROUP BY 1, 2, 3, 4
ON CONFLICT (link_id, hour, dim, key) DO UPDATE SET visits = t.visits + EXCLUDED.visits;
INSERT INTO visit_key_hours AS t (link_id, hour, dim, key, visits)
SELECT link_id, hour, 'a', array_to_string((string_to_array(key, chr(31)))[1:3], chr(31)), sum(visits)
FROM visit_key_hours WHERE dim = 'a' AND split_part(key, chr(31), 4) <> ''
GROUP BY 1, 2, 3, 4
ON CONFLICT (link_id, hour, dim, key) DO UPDATE SET visits = t.visits + EXCLUDED.visits;
DELETE FROM visit_key_hours WHERE dim = 'a' AND split_part(key, chr(31), 4) <> '';
INSERT INTO visit_key_days AS t (link_id, day, dim, key, visits)
SELECT link_id, day, 'i', split_part(key, chr(31), 4), sum(visits)
FROM visit_key_days WHERE dim = 'a' AND split_part(key, chr(31), 4) <> ''
GROUP BY 1, 2, 3, 4
ON CONFLICT (link_id, day, dim, key) DO UPDATE SET visits = t.visits + EXCLUDED.visits;
INSERT INTO visit_key_days AS t (link_id, day, dim, key, visits)
SELECT link_id, day, 'a', array_to_string((string_to_array(key, chr(31)))[1:3], chr(31)), sum(visits)
FROM visit_key_days WHERE dim = 'a' AND split_part(key, chr(31), 4) <> ''
GROUP BY 1, 2, 3, 4
ON CONFLICT (link_id, day, dim, key) DO UPDATE SET visits = t.visits + EXCLUDED.visits;
DELETE FROM visit_key_days WHERE dim = 'a' AND split_part(key, chr(31), 4) <> '';
