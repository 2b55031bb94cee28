local ok = pcall(function() assert(io.open("data/plain.txt")):close() end)
print(ok)
local f = assert(io.open("no/such/file.txt"))
print("not reached", f)
