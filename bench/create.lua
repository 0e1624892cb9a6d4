-- Creates links through the API with a workspace API key; every request has its own URL.
local n = 0
local key

function init(args)
  key = args[1]
  math.randomseed(os.time())
  n = math.random(1, 1000000000)
end

function request()
  n = n + 1
  return wrk.format("POST", nil, {
    ["Content-Type"] = "application/json",
    ["Authorization"] = "Bearer " .. key,
  }, '{"url":"https://example.com/bench/' .. n .. '"}')
end
