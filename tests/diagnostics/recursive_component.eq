// RUN: check
model RecursiveComponent "a component that contains itself, and a class that extends itself"
  model Node
    Real v;
    Node next;
  equation
    v = 1;
  end Node;
  model Loop
    extends Loop;
  end Loop;
  Node head;
  Loop l;
end RecursiveComponent;
