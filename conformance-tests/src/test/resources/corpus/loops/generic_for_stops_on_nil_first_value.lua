-- iteration stops when the first returned value is nil, even if others are not
local calls = 0
local function it()
  calls = calls + 1
  if calls == 3 then return nil, "second" end
  return calls
end
for v in it do print(v) end
print(calls)
