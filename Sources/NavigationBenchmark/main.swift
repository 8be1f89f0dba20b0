print("navigation-benchmark: not built yet")
