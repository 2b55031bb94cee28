-- hexadecimal integer literals wrap around modulo 2^64 instead of becoming floats
print(0xffffffffffffffff)
print(0x8000000000000000)
print(0x10000000000000000)
print(math.type(0xffffffffffffffff))
