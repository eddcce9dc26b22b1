from phatlog.cli.entry import main

main()
