-- uppercase class letters are complements
print(("a1 b2"):gsub("%D", ""))
print(("a1 b2"):gsub("%S", "#"))
print(("a1_b2"):gsub("%W", "."))
