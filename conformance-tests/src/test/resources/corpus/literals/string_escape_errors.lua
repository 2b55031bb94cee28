-- invalid escapes are syntax errors
print(load([[return "\q"]]))
print(load([[return "\256"]]))
print(load([[return "\xZZ"]]))
print(load([[return "\u{110000000}"]]))
print(load([[return "\u41"]]))
