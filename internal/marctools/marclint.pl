#!/usr/bin/perl
# marclint.pl: runs MARC::Lint over the ISO 2709 records of the files named
# on the command line and prints one line per warning, "<001>\t<warning>",
# including the decoder's own warnings. Exit status 0 when every file could
# be read, whatever the warnings.
use strict;
use warnings;
use MARC::File::USMARC;
use MARC::Lint;

my $lint = MARC::Lint->new;
for my $path (@ARGV) {
    my $file = MARC::File::USMARC->in($path) or die "$path: $MARC::File::ERROR\n";
    while (my $rec = $file->next) {
        my $id = $rec->field('001') ? $rec->field('001')->data : '?';
        print "$id\tdecode: ", oneline($_), "\n" for $rec->warnings;
        $lint->check_record($rec);
        print "$id\t", oneline($_), "\n" for $lint->warnings;
    }
    $file->close;
}

# oneline returns a warning on one line, trimmed.
sub oneline {
    my $w = shift;
    $w =~ s/\s+/ /g;
    $w =~ s/^ | $//g;
    return $w;
}
