from phatlog.entry import main

main()
