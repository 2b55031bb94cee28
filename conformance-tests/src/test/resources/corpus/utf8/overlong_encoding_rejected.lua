-- overlong encodings are invalid for utf8.len
print(utf8.len("\xC0\x80"))
print(utf8.len("\xE0\x80\x80"))
print(utf8.len("\xED\xA0\x80"))
