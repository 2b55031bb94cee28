-- a generic for calls f(s, control) until the first value is nil
local function iter(limit, i)
  if i < limit then return i + 1, (i + 1) * 2 end
end
for i, d in iter, 3, 0 do print(i, d) end
