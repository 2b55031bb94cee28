-- decimal strings too large for an integer become floats; hex strings wrap
print(math.type(tonumber("9223372036854775807")), tonumber("9223372036854775807"))
print(math.type(tonumber("9223372036854775808")), tonumber("9223372036854775808"))
print(tonumber("0xffffffffffffffff"))
