-- a producer/consumer pipeline
local producer = coroutine.create(function()
  for _, item in ipairs({"a", "b", "c"}) do coroutine.yield(item) end
end)
local out = {}
while true do
  local ok, item = coroutine.resume(producer)
  if not item then break end
  out[#out + 1] = item:upper()
end
print(table.concat(out), coroutine.status(producer))
