-- utf8.offset refuses to start on a continuation byte
print(pcall(utf8.offset, "\u{E9}", 1, 2))
