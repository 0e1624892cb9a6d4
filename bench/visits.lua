-- Visits short links from a file of codes (one per line) as a crowd would: the popular links
-- most (the k-th of the file about 1/k as often as the first: N^u for u uniform in [0, 1)),
-- from phones and desktops, one visit in five by a crawler, some from a referring page.
local paths = {}
local agents = {
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
  "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
}
local referers = { "", "", "https://www.google.com/", "https://t.co/x" }
local n = 0

function init(args)
  for line in io.lines(args[1]) do
    paths[#paths + 1] = "/" .. line
  end
  math.randomseed(os.time() + #paths)
  n = math.random(1, 1000)
end

function request()
  n = n + 1
  local headers = { ["User-Agent"] = agents[n % #agents + 1] }
  local ref = referers[n % #referers + 1]
  if ref ~= "" then
    headers["Referer"] = ref
  end
  return wrk.format("GET", paths[math.floor((#paths) ^ math.random())], headers)
end
