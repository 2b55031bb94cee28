-- %% is a literal percent sign
print(string.format("100%%"))
print(string.format("%d%%", 50))
