-- select('#') and positive indices
print(select("#"), select("#", nil), select("#", 1, 2, 3))
print(select(2, "a", "b", "c"))
