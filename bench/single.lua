-- Visits one short link again and again, as desktop browsers without its cookies would (each
-- visit of a link with variants then picks one and sets its cookie).
local path

function init(args)
  path = "/" .. args[1]
  wrk.headers["User-Agent"] = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
  wrk.headers["Accept-Language"] = "en-US,en;q=0.9"
end

function request()
  return wrk.format("GET", path)
end
