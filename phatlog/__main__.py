from phatlog.cli import main

main()
