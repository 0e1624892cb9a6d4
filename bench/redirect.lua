-- Visits random short links from a file of codes (one per line), as many visitors would.
local paths = {}

function init(args)
  for line in io.lines(args[1]) do
    paths[#paths + 1] = "/" .. line
  end
  math.randomseed(os.time() + #paths)
end

function request()
  return wrk.format("GET", paths[math.random(#paths)])
end
