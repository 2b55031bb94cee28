-- A small tour of luavm: closures, tables, string functions, coroutines, errors.
local function counter()
  local n = 0
  return function() n = n + 1; return n end
end

local next_id = counter()
local people = {}
for _, name in ipairs({"ada", "grace", "barbara"}) do
  people[#people + 1] = { id = next_id(), name = name:upper() }
end
table.sort(people, function(a, b) return a.name < b.name end)
for _, p in ipairs(people) do
  print(string.format("%d %-8s %s", p.id, p.name, ("*"):rep(#p.name)))
end

local gen = coroutine.wrap(function()
  for i = 1, 3 do coroutine.yield(i * i) end
end)
print("squares:", gen(), gen(), gen())

local ok, err = pcall(function() local t = nil; return t.field end)
print("caught:", ok, err)
print(_VERSION, math.maxinteger, 7 // 2, 7 / 2, 2^53)
