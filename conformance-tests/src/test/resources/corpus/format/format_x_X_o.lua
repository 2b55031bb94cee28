-- %x %X %o; negative integers are shown as 64-bit two's complement
print(string.format("%x %X %o", 255, 255, 8))
print(string.format("%x", -1))
print(string.format("%08x", 0xBEEF))
print(string.format("%X", math.mininteger))
print(string.format("%x", 16.0))
