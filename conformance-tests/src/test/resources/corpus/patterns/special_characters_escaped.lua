-- magic characters must be escaped with '%' to match literally
print(string.find("1+1=2", "1+1"))
print(string.find("1+1=2", "1%+1"))
print(string.gsub("a.b.c", "%.", "/"))
print(string.match("(x)", "%((%a)%)"))
