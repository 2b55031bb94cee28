-- leading/trailing whitespace and signs are accepted in numeric strings
print(tonumber("  12  "), tonumber("-12"), tonumber("+12"))
print(tonumber("- 12"), tonumber("12a"), tonumber(""))
print(" -0x10 " + 0)
