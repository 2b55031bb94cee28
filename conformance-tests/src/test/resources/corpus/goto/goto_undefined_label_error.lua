-- a goto needs a visible label
print(load("goto nowhere"))
print(load("do ::inner:: end goto inner"))
