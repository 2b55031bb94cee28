-- utf8.codepoint errors on invalid bytes and out-of-range positions
print(pcall(function() return utf8.codepoint("\255") end))
print(pcall(function() return utf8.codepoint("abc", 5) end))
print(pcall(function() return utf8.codepoint("\u{E9}", 2) end))
