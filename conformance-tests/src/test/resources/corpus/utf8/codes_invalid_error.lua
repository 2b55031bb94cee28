-- utf8.codes raises an error on invalid sequences
print(pcall(function() for p, c in utf8.codes("ab\255") do end end))
