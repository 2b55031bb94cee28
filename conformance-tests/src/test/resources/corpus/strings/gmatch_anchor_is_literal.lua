-- in 5.3, '^' at the start of a gmatch pattern matches a literal '^'
local n = 0
for m in string.gmatch("^a^b", "^.") do n = n + 1; print(m) end
print(n)
