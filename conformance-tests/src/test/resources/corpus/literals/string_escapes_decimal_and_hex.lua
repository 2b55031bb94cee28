-- \ddd decimal escapes (up to 3 digits) and \xhh hex escapes
print("\65\066\0677", "\x41\x62\x7A")
print(("\0\1\255"):byte(1, -1))
print(#"\0001")
