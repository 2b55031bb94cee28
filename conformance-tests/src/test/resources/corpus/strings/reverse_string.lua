-- string.reverse reverses bytes
print(string.reverse("hello"), string.reverse(""), string.reverse("a"))
