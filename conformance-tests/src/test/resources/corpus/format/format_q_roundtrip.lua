-- the %q output loads back to the same string
local s = "a\0b\n\"c\\\1\2\0033\255"
local back = load("return " .. string.format("%q", s))()
print(back == s, #back)
