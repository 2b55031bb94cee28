-- utf8.charpattern matches exactly one UTF-8 sequence
print(string.format("%q", utf8.charpattern))
local n = 0
for _ in string.gmatch("h\u{E9}\u{20AC}!", utf8.charpattern) do n = n + 1 end
print(n)
