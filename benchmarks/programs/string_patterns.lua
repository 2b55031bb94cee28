-- Pattern-heavy text processing, as agents' scripts do it: log lines are written with
-- string.format, split with gmatch, parsed with match and find, rewritten with gsub (a string
-- replacement with captures, a function and a table), and summarised. Stresses the pattern
-- matcher, captures, string.format and the string library's small functions.
local n = tonumber(arg and arg[1]) or 60000

local levels = { 'INFO', 'WARN', 'ERROR', 'DEBUG' }
local paths = { '/api/users', '/api/orders/42', '/static/app.js', '/login', '/api/items?id=7&sort=asc' }
local agents = { 'curl/8.1', 'Mozilla/5.0 (X11; Linux x86_64)', 'python-requests/2.31' }

local function line(i)
  return string.format('%04d-%02d-%02dT%02d:%02d:%02d %-5s [%s] %s %d %.3fms ua="%s" user=%s',
    2020 + i % 5, i % 12 + 1, i % 28 + 1, i % 24, i % 60, (i * 7) % 60,
    levels[i % #levels + 1], 'worker-' .. (i % 8), paths[i % #paths + 1],
    200 + (i % 5) * 100 + i % 4, (i % 1000) / 7, agents[i % #agents + 1], 'u' .. (i * 13) % 997)
end

local rename = { INFO = 'info', WARN = 'warning', ERROR = 'error', DEBUG = 'debug' }

local count, status_sum, ms_sum, words, hash = 0, 0, 0, 0, 0
local by_level = {}
local text = {}
for i = 1, n do text[#text + 1] = line(i) end
local log = table.concat(text, '\n')

for l in log:gmatch('[^\n]+') do
  count = count + 1
  local date, time, level, worker, path, status, ms = l:match(
    '^(%d+%-%d+%-%d+)T([%d:]+) (%u+)%s*%[([%w%-]+)%] (%S+) (%d+) ([%d%.]+)ms')
  status_sum = status_sum + tonumber(status)
  ms_sum = (ms_sum + math.floor(tonumber(ms) * 1000 + 0.5)) % 1000000007
  by_level[level] = (by_level[level] or 0) + 1
  local ua = l:match('ua="([^"]*)"')
  for w in ua:gmatch('%a+') do words = words + #w end
  local q = path:find('?', 1, true)
  if q then
    for k, v in path:sub(q + 1):gmatch('(%w+)=(%w+)') do words = words + #k + #v end
  end
  -- rewrite: ISO date to d/m/y, level names through a table, numbers through a function
  local out = l:gsub('^(%d+)%-(%d+)%-(%d+)', '%3/%2/%1')
  out = out:gsub('%u%u%u+', rename)
  out = out:gsub('user=(%w+)', function(u) return 'user=' .. u:upper() end)
  out = out:gsub('%s+', ' ')
  if out:find('error', 1, true) then words = words + 1 end
  for i = 1, #out, 11 do hash = (hash * 31 + out:byte(i)) % 2147483647 end
end
local levels_seen = {}
for _, name in ipairs(levels) do levels_seen[#levels_seen + 1] = name .. '=' .. (by_level[name] or 0) end
print(string.format('string_patterns n=%d lines=%d status=%d ms=%d words=%d %s hash=%d', n, count, status_sum,
  ms_sum, words, table.concat(levels_seen, ','), hash))
