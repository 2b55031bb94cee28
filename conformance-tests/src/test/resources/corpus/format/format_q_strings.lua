-- %q produces a string literal that Lua can read back
print(string.format("%q", 'he said "hi"\n'))
print(string.format("%q", "tab\tzero\0bell\7"))
print(string.format("%q", "back\\slash"))
print(string.format("%q", "\r\n"))
print(string.format("%q", "\0001"))
print(string.format("%q", "\200\255"):byte(1, -1))
