print(utf8.char(72, 0x10FFFF, 228), utf8.len("\xff"), #utf8.charpattern)
for p, c in utf8.codes("h\u{E4}") do print(p, c) end
print(string.pack("i4 z s1", 7, "ab", "c"):byte(1, -1))
print(string.unpack("<i2 >i2", "\1\0\0\1"))
