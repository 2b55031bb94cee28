-- pcall catches errors raised by library functions with their messages
print(pcall(setmetatable, {}, 1))
print(pcall(ipairs))
print(pcall(rawlen, 1))
