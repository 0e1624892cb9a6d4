-- Walks the short links of a file of codes (one per line) in order, each wrk thread over its
-- own half, then around again: a few seconds put every link in the node's cache, which random
-- picks would leave about a fifth short of.
local paths = {}
local threads = 0
local i = 0

function setup(thread)
  thread:set("part", threads)
  threads = threads + 1
end

function init(args)
  for line in io.lines(args[1]) do
    paths[#paths + 1] = "/" .. line
  end
  i = (part or 0) * math.floor(#paths / 2)
end

function request()
  i = i % #paths + 1
  return wrk.format("GET", paths[i])
end
